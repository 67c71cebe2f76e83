import type { Locale } from '@halyard/protocol';

/** A seeded notice: its slug (the seed's idempotency key), its age, and its text in all nine locales. */
export interface DemoNotice {
  slug: string;
  /** How long before the seed's first run it is dated, so the list has a believable order. */
  ageMs: number;
  texts: Record<Locale, { title: string; body: string }>;
}

const DAY_MS = 86_400_000;

/** The five notices a demo install starts with (task "Foundation" 9; AMENDMENTS A1, A2, A5). */
export const DEMO_NOTICES: DemoNotice[] = [
  {
    slug: 'welcome',
    ageMs: 4 * DAY_MS,
    texts: {
      en: {
        title: 'Welcome to Halyard',
        body: '<p>Halyard is an open-source crypto-asset exchange. Trade spot pairs with limit or market orders, perpetual futures with leverage, take-profit and stop-loss, and fixed-cycle contracts.</p><p>You can also subscribe to IEO projects, flash-exchange coins, buy and sell through merchants and invite friends for rebates.</p><p>Questions? Open <b>Help and feedback</b> in <i>My</i> and send us a ticket.</p>',
      },
      cn: {
        title: '欢迎来到 Halyard',
        body: '<p>Halyard 是一个开源的数字资产交易平台。您可以用限价单或市价单交易现货，用杠杆、止盈止损交易永续合约，也可以交易秒合约。</p><p>您还可以认购 IEO 项目、闪兑币种、通过商家买卖法币，并邀请好友获得返佣。</p><p>有疑问？请在「我的」中打开<b>帮助与反馈</b>提交工单。</p>',
      },
      tw: {
        title: '歡迎來到 Halyard',
        body: '<p>Halyard 是一個開源的數位資產交易平台。您可以用限價單或市價單交易現貨，用槓桿、止盈止損交易永續合約，也可以交易秒合約。</p><p>您還可以認購 IEO 項目、閃兌幣種、透過商家買賣法幣，並邀請好友獲得返佣。</p><p>有疑問？請在「我的」中打開<b>幫助與反饋</b>提交工單。</p>',
      },
      jp: {
        title: 'Halyard へようこそ',
        body: '<p>Halyard はオープンソースの暗号資産取引所です。指値・成行注文による現物取引、レバレッジと利確・損切りを備えた無期限先物、期間限定のサイクル契約をご利用いただけます。</p><p>IEO プロジェクトへの申し込み、コインの即時交換、加盟店を通じた法定通貨での売買、友達招待によるリベートもご利用いただけます。</p><p>ご不明な点は「マイページ」の<b>ヘルプとフィードバック</b>からチケットを送信してください。</p>',
      },
      ko: {
        title: 'Halyard에 오신 것을 환영합니다',
        body: '<p>Halyard는 오픈 소스 암호화폐 거래소입니다. 지정가·시장가 주문으로 현물을, 레버리지와 익절·손절로 무기한 선물을, 그리고 기간제 사이클 계약을 거래할 수 있습니다.</p><p>IEO 프로젝트 청약, 코인 즉시 교환, 가맹점을 통한 법정화폐 매매, 친구 초대 리베이트도 이용할 수 있습니다.</p><p>궁금한 점이 있으면 <i>내 정보</i>의 <b>도움말 및 피드백</b>에서 티켓을 보내 주세요.</p>',
      },
      tr: {
        title: "Halyard'a hoş geldiniz",
        body: "<p>Halyard açık kaynaklı bir kripto varlık borsasıdır. Limit veya piyasa emirleriyle spot işlem yapabilir, kaldıraç, kâr al ve zarar durdur ile vadesiz vadeli işlemler ve sabit süreli döngü sözleşmeleri işlem görebilirsiniz.</p><p>Ayrıca IEO projelerine katılabilir, anında coin dönüştürebilir, satıcılar aracılığıyla itibari para ile alım satım yapabilir ve arkadaşlarınızı davet ederek komisyon iadesi kazanabilirsiniz.</p><p>Sorunuz mu var? <i>Hesabım</i> bölümünde <b>Yardım ve geri bildirim</b>'i açıp bize bir talep gönderin.</p>",
      },
      vi: {
        title: 'Chào mừng đến với Halyard',
        body: '<p>Halyard là sàn giao dịch tài sản số mã nguồn mở. Bạn có thể giao dịch giao ngay bằng lệnh giới hạn hoặc lệnh thị trường, hợp đồng vĩnh cửu có đòn bẩy, chốt lời và cắt lỗ, và hợp đồng theo chu kỳ.</p><p>Bạn cũng có thể đăng ký dự án IEO, đổi coin nhanh, mua bán bằng tiền pháp định qua thương nhân và mời bạn bè để nhận hoàn phí.</p><p>Có câu hỏi? Mở <b>Trợ giúp và phản hồi</b> trong mục <i>Của tôi</i> và gửi phiếu hỗ trợ cho chúng tôi.</p>',
      },
      id: {
        title: 'Selamat datang di Halyard',
        body: '<p>Halyard adalah bursa aset kripto sumber terbuka. Perdagangkan pasangan spot dengan order limit atau market, futures perpetual dengan leverage, take-profit dan stop-loss, serta kontrak siklus berjangka tetap.</p><p>Anda juga dapat berlangganan proyek IEO, menukar koin secara instan, membeli dan menjual melalui merchant, dan mengundang teman untuk mendapatkan rabat.</p><p>Ada pertanyaan? Buka <b>Bantuan dan masukan</b> di menu <i>Saya</i> dan kirimkan tiket kepada kami.</p>',
      },
      ru: {
        title: 'Добро пожаловать в Halyard',
        body: '<p>Halyard — криптобиржа с открытым исходным кодом. Торгуйте спотовыми парами лимитными и рыночными ордерами, бессрочными фьючерсами с плечом, тейк-профитом и стоп-лоссом, а также циклическими контрактами с фиксированным сроком.</p><p>Вы также можете участвовать в IEO, мгновенно обменивать монеты, покупать и продавать через мерчантов и приглашать друзей, получая вознаграждение.</p><p>Есть вопросы? Откройте <b>Помощь и обратная связь</b> в разделе <i>Мой профиль</i> и отправьте нам обращение.</p>',
      },
    },
  },
  {
    slug: 'demo-mode',
    ageMs: 3 * DAY_MS,
    texts: {
      en: {
        title: 'Demo mode: the funds are not real',
        body: '<p>This Halyard runs in <b>demo mode</b>. Prices come from a simulator, a built-in market maker provides the order books, and every balance is <b>play money</b>.</p><ul><li>The funds shown here are not real and cannot be withdrawn to a real wallet.</li><li>Nothing you do here costs or earns real money.</li><li>Every screen shows a DEMO badge while demo mode is on.</li></ul><p>Use it to learn the product safely.</p>',
      },
      cn: {
        title: '演示模式：资金并非真实',
        body: '<p>当前 Halyard 运行在<b>演示模式</b>。价格来自模拟器，订单簿由内置做市商提供，所有余额均为<b>模拟资金</b>。</p><ul><li>此处显示的资金并非真实资金，无法提取到真实钱包。</li><li>您在此的任何操作都不会花费或赚取真实的钱。</li><li>演示模式开启时，每个页面都会显示 DEMO 标记。</li></ul><p>请放心用它来熟悉产品。</p>',
      },
      tw: {
        title: '演示模式：資金並非真實',
        body: '<p>目前 Halyard 運行在<b>演示模式</b>。價格來自模擬器，訂單簿由內建做市商提供，所有餘額均為<b>模擬資金</b>。</p><ul><li>此處顯示的資金並非真實資金，無法提領到真實錢包。</li><li>您在此的任何操作都不會花費或賺取真實的錢。</li><li>演示模式開啟時，每個頁面都會顯示 DEMO 標記。</li></ul><p>請放心用它來熟悉產品。</p>',
      },
      jp: {
        title: 'デモモード：資金は本物ではありません',
        body: '<p>この Halyard は<b>デモモード</b>で動作しています。価格はシミュレーターから、板は内蔵のマーケットメイカーから提供され、残高はすべて<b>仮想資金</b>です。</p><ul><li>ここに表示される資金は本物ではなく、実際のウォレットへ出金できません。</li><li>ここでの操作で実際のお金が増減することはありません。</li><li>デモモード中はすべての画面に DEMO バッジが表示されます。</li></ul><p>安心して操作を覚えるためにお使いください。</p>',
      },
      ko: {
        title: '데모 모드: 자금은 실제가 아닙니다',
        body: '<p>이 Halyard는 <b>데모 모드</b>로 실행 중입니다. 가격은 시뮬레이터에서, 호가창은 내장 마켓 메이커에서 제공되며 모든 잔고는 <b>가상 자금</b>입니다.</p><ul><li>여기에 표시된 자금은 실제가 아니며 실제 지갑으로 출금할 수 없습니다.</li><li>여기서 하는 어떤 거래도 실제 돈을 쓰거나 벌지 않습니다.</li><li>데모 모드가 켜져 있는 동안 모든 화면에 DEMO 배지가 표시됩니다.</li></ul><p>안심하고 제품을 익히는 데 사용하세요.</p>',
      },
      tr: {
        title: 'Demo modu: bakiyeler gerçek değildir',
        body: '<p>Bu Halyard <b>demo modunda</b> çalışıyor. Fiyatlar bir simülatörden gelir, emir defterlerini yerleşik bir piyasa yapıcı sağlar ve tüm bakiyeler <b>sanal paradır</b>.</p><ul><li>Burada gösterilen fonlar gerçek değildir ve gerçek bir cüzdana çekilemez.</li><li>Burada yaptığınız hiçbir işlem gerçek para kaybettirmez veya kazandırmaz.</li><li>Demo modu açıkken her ekranda DEMO rozeti görünür.</li></ul><p>Ürünü güvenle öğrenmek için kullanın.</p>',
      },
      vi: {
        title: 'Chế độ demo: số tiền không phải tiền thật',
        body: '<p>Halyard này đang chạy ở <b>chế độ demo</b>. Giá đến từ trình mô phỏng, sổ lệnh do nhà tạo lập thị trường tích hợp cung cấp và mọi số dư đều là <b>tiền ảo</b>.</p><ul><li>Số tiền hiển thị ở đây không phải tiền thật và không thể rút về ví thật.</li><li>Mọi thao tác ở đây không làm bạn mất hay kiếm được tiền thật.</li><li>Khi chế độ demo bật, mọi màn hình đều hiển thị huy hiệu DEMO.</li></ul><p>Hãy dùng nó để làm quen với sản phẩm một cách an toàn.</p>',
      },
      id: {
        title: 'Mode demo: dana ini tidak nyata',
        body: '<p>Halyard ini berjalan dalam <b>mode demo</b>. Harga berasal dari simulator, buku order disediakan oleh market maker bawaan, dan semua saldo adalah <b>uang mainan</b>.</p><ul><li>Dana yang ditampilkan di sini tidak nyata dan tidak dapat ditarik ke dompet sungguhan.</li><li>Apa pun yang Anda lakukan di sini tidak memakan atau menghasilkan uang sungguhan.</li><li>Selama mode demo aktif, setiap layar menampilkan lencana DEMO.</li></ul><p>Gunakan untuk mempelajari produk dengan aman.</p>',
      },
      ru: {
        title: 'Демо-режим: средства не настоящие',
        body: '<p>Этот Halyard работает в <b>демо-режиме</b>. Цены поступают от симулятора, книги ордеров обеспечивает встроенный маркет-мейкер, а все балансы — <b>игровые деньги</b>.</p><ul><li>Показанные здесь средства не настоящие, их нельзя вывести на реальный кошелёк.</li><li>Ничто из того, что вы здесь делаете, не тратит и не приносит реальных денег.</li><li>Пока включён демо-режим, на каждом экране виден значок DEMO.</li></ul><p>Используйте его, чтобы безопасно освоить продукт.</p>',
      },
    },
  },
  {
    slug: 'fee-schedule',
    ageMs: 2 * DAY_MS,
    texts: {
      en: {
        title: 'Fee schedule',
        body: "<p>Every fee is shown before you confirm an order.</p><ul><li><b>Spot:</b> a trading fee on the filled amount, at the rate shown on the order form.</li><li><b>Futures:</b> notional value × the pair's fee rate, charged when a position opens and when it closes; the fee appears next to the margin before you confirm.</li><li><b>Cycle contracts:</b> the payout and loss rates are shown before you confirm; a draw returns the full stake.</li><li><b>Deposits:</b> free. <b>Withdrawals:</b> the network fee is shown on the withdrawal page.</li></ul><p>Invite rebates: you receive 10%, 20% or 30% of your friends' trading fees, depending on your platform-token holdings (under 500, 500–5000, above 5000).</p>",
      },
      cn: {
        title: '费率说明',
        body: '<p>所有费用都会在您确认订单前显示。</p><ul><li><b>现货：</b>按成交额收取交易手续费，费率以下单页显示为准。</li><li><b>合约：</b>名义价值 × 该交易对的手续费率，在开仓和平仓时收取；确认前会在保证金旁显示手续费。</li><li><b>秒合约：</b>确认前显示盈利率和亏损率；平局全额退还本金。</li><li><b>充值：</b>免费。<b>提现：</b>网络手续费在提现页面显示。</li></ul><p>邀请返佣：根据您持有的平台币数量（少于 500、500–5000、超过 5000），您可获得好友交易手续费的 10%、20% 或 30%。</p>',
      },
      tw: {
        title: '費率說明',
        body: '<p>所有費用都會在您確認訂單前顯示。</p><ul><li><b>現貨：</b>按成交額收取交易手續費，費率以下單頁顯示為準。</li><li><b>合約：</b>名義價值 × 該交易對的手續費率，在開倉和平倉時收取；確認前會在保證金旁顯示手續費。</li><li><b>秒合約：</b>確認前顯示盈利率和虧損率；平局全額退還本金。</li><li><b>充值：</b>免費。<b>提現：</b>網路手續費在提現頁面顯示。</li></ul><p>邀請返佣：根據您持有的平台幣數量（少於 500、500–5000、超過 5000），您可獲得好友交易手續費的 10%、20% 或 30%。</p>',
      },
      jp: {
        title: '手数料について',
        body: '<p>すべての手数料は注文の確定前に表示されます。</p><ul><li><b>現物：</b>約定金額に対して、注文画面に表示される料率の取引手数料がかかります。</li><li><b>先物：</b>想定元本 × 銘柄の手数料率を、ポジションの建玉時と決済時に徴収します。確定前に証拠金の横に表示されます。</li><li><b>サイクル契約：</b>確定前に配当率と損失率が表示されます。引き分けの場合は元本が全額返金されます。</li><li><b>入金：</b>無料。<b>出金：</b>ネットワーク手数料は出金画面に表示されます。</li></ul><p>招待リベート：プラットフォームトークンの保有量（500 未満、500～5000、5000 超）に応じて、友達の取引手数料の 10%、20%、30% を受け取れます。</p>',
      },
      ko: {
        title: '수수료 안내',
        body: '<p>모든 수수료는 주문을 확인하기 전에 표시됩니다.</p><ul><li><b>현물:</b> 체결 금액에 대해 주문 화면에 표시된 요율의 거래 수수료가 부과됩니다.</li><li><b>선물:</b> 명목 가치 × 해당 페어의 수수료율이 포지션 진입 시와 청산 시에 부과되며, 확인 전 증거금 옆에 표시됩니다.</li><li><b>사이클 계약:</b> 확인 전에 수익률과 손실률이 표시되며, 무승부면 원금 전액이 반환됩니다.</li><li><b>입금:</b> 무료. <b>출금:</b> 네트워크 수수료는 출금 화면에 표시됩니다.</li></ul><p>초대 리베이트: 플랫폼 토큰 보유량(500 미만, 500–5000, 5000 초과)에 따라 친구 거래 수수료의 10%, 20% 또는 30%를 받습니다.</p>',
      },
      tr: {
        title: 'Ücret tablosu',
        body: "<p>Her ücret, emri onaylamadan önce gösterilir.</p><ul><li><b>Spot:</b> gerçekleşen tutar üzerinden, emir formunda gösterilen oranda işlem ücreti.</li><li><b>Vadeli:</b> nominal değer × paritenin ücret oranı; pozisyon açılırken ve kapanırken alınır, onaydan önce teminatın yanında gösterilir.</li><li><b>Döngü sözleşmeleri:</b> kazanç ve kayıp oranları onaydan önce gösterilir; beraberlikte tüm tutar iade edilir.</li><li><b>Yatırma:</b> ücretsiz. <b>Çekme:</b> ağ ücreti çekim sayfasında gösterilir.</li></ul><p>Davet iadesi: platform token varlığınıza göre (500'ün altı, 500–5000, 5000'in üstü) arkadaşlarınızın işlem ücretlerinin %10, %20 veya %30'unu alırsınız.</p>",
      },
      vi: {
        title: 'Biểu phí',
        body: '<p>Mọi khoản phí đều được hiển thị trước khi bạn xác nhận lệnh.</p><ul><li><b>Giao ngay:</b> phí giao dịch trên khối lượng khớp, theo mức phí hiển thị trên màn hình đặt lệnh.</li><li><b>Hợp đồng tương lai:</b> giá trị danh nghĩa × mức phí của cặp, thu khi mở và khi đóng vị thế; phí hiển thị cạnh ký quỹ trước khi xác nhận.</li><li><b>Hợp đồng chu kỳ:</b> tỷ lệ thắng và tỷ lệ lỗ hiển thị trước khi xác nhận; hòa thì hoàn lại toàn bộ tiền đặt.</li><li><b>Nạp tiền:</b> miễn phí. <b>Rút tiền:</b> phí mạng hiển thị trên trang rút tiền.</li></ul><p>Hoàn phí giới thiệu: bạn nhận 10%, 20% hoặc 30% phí giao dịch của bạn bè, tùy theo số token nền tảng bạn nắm giữ (dưới 500, 500–5000, trên 5000).</p>',
      },
      id: {
        title: 'Jadwal biaya',
        body: '<p>Setiap biaya ditampilkan sebelum Anda mengonfirmasi order.</p><ul><li><b>Spot:</b> biaya trading atas jumlah yang terisi, sesuai tarif yang ditampilkan di formulir order.</li><li><b>Futures:</b> nilai nosional × tarif biaya pasangan, dikenakan saat posisi dibuka dan ditutup; biaya tampil di samping margin sebelum konfirmasi.</li><li><b>Kontrak siklus:</b> tingkat pembayaran dan kerugian ditampilkan sebelum konfirmasi; hasil seri mengembalikan seluruh taruhan.</li><li><b>Deposit:</b> gratis. <b>Penarikan:</b> biaya jaringan ditampilkan di halaman penarikan.</li></ul><p>Rabat undangan: Anda menerima 10%, 20%, atau 30% dari biaya trading teman Anda, tergantung kepemilikan token platform Anda (di bawah 500, 500–5000, di atas 5000).</p>',
      },
      ru: {
        title: 'Комиссии',
        body: '<p>Каждая комиссия показывается до подтверждения ордера.</p><ul><li><b>Спот:</b> торговая комиссия с исполненной суммы по ставке, указанной в форме ордера.</li><li><b>Фьючерсы:</b> номинальная стоимость × ставка комиссии пары, взимается при открытии и при закрытии позиции; комиссия видна рядом с маржой до подтверждения.</li><li><b>Циклические контракты:</b> ставки выплаты и убытка показываются до подтверждения; при ничьей ставка возвращается полностью.</li><li><b>Пополнение:</b> бесплатно. <b>Вывод:</b> сетевая комиссия указана на странице вывода.</li></ul><p>Реферальное вознаграждение: вы получаете 10%, 20% или 30% торговых комиссий друзей в зависимости от количества токенов платформы у вас (менее 500, 500–5000, более 5000).</p>',
      },
    },
  },
  {
    slug: 'security-tips',
    ageMs: 1 * DAY_MS,
    texts: {
      en: {
        title: 'Security tips',
        body: '<ul><li>Wallet sign-in only asks you to <b>sign a message</b> that names this site. Halyard never asks for an unlimited token approval; refuse any request for one.</li><li>Never share your seed phrase, private key, passwords or verification codes, not even with staff.</li><li>Check the address bar before you sign in or sign anything.</li><li>Set a fund password and bind your email; after a password change, withdrawals pause for 24 hours to protect you.</li></ul>',
      },
      cn: {
        title: '安全提示',
        body: '<ul><li>钱包登录只会请求您<b>签名一条</b>写明本网站的消息。Halyard 从不请求无限额度的代币授权，遇到此类请求请拒绝。</li><li>切勿向任何人（包括工作人员）透露助记词、私钥、密码或验证码。</li><li>登录或签名前请核对地址栏中的网址。</li><li>请设置资金密码并绑定邮箱；修改密码后 24 小时内暂停提现，以保护您的资产。</li></ul>',
      },
      tw: {
        title: '安全提示',
        body: '<ul><li>錢包登錄只會請求您<b>簽名一條</b>寫明本網站的訊息。Halyard 從不請求無限額度的代幣授權，遇到此類請求請拒絕。</li><li>切勿向任何人（包括工作人員）透露助記詞、私鑰、密碼或驗證碼。</li><li>登錄或簽名前請核對網址列中的網址。</li><li>請設置資金密碼並綁定郵箱；修改密碼後 24 小時內暫停提現，以保護您的資產。</li></ul>',
      },
      jp: {
        title: 'セキュリティのヒント',
        body: '<ul><li>ウォレットでのログインは、このサイト名が記載された<b>メッセージへの署名</b>だけを求めます。Halyard が無制限のトークン承認を求めることはありません。そのような要求は拒否してください。</li><li>シードフレーズ、秘密鍵、パスワード、認証コードは、スタッフを含め誰にも教えないでください。</li><li>ログインや署名の前にアドレスバーを確認してください。</li><li>資金パスワードを設定し、メールアドレスを連携してください。パスワード変更後は保護のため 24 時間出金が停止されます。</li></ul>',
      },
      ko: {
        title: '보안 수칙',
        body: '<ul><li>지갑 로그인은 이 사이트 이름이 적힌 <b>메시지 서명</b>만 요청합니다. Halyard는 무제한 토큰 승인을 절대 요청하지 않으니 그런 요청은 거부하세요.</li><li>시드 문구, 개인 키, 비밀번호, 인증 코드는 직원을 포함해 누구에게도 알려 주지 마세요.</li><li>로그인하거나 서명하기 전에 주소 표시줄을 확인하세요.</li><li>자금 비밀번호를 설정하고 이메일을 연결하세요. 비밀번호 변경 후에는 보호를 위해 24시간 동안 출금이 중지됩니다.</li></ul>',
      },
      tr: {
        title: 'Güvenlik ipuçları',
        body: '<ul><li>Cüzdanla giriş yalnızca bu siteyi adıyla anan bir <b>mesajı imzalamanızı</b> ister. Halyard asla sınırsız token onayı istemez; böyle bir isteği reddedin.</li><li>Kurtarma ifadenizi, özel anahtarınızı, şifrelerinizi veya doğrulama kodlarınızı çalışanlar dahil kimseyle paylaşmayın.</li><li>Giriş yapmadan veya bir şey imzalamadan önce adres çubuğunu kontrol edin.</li><li>Fon şifresi belirleyin ve e-postanızı bağlayın; şifre değişikliğinden sonra sizi korumak için çekimler 24 saat durdurulur.</li></ul>',
      },
      vi: {
        title: 'Mẹo bảo mật',
        body: '<ul><li>Đăng nhập bằng ví chỉ yêu cầu bạn <b>ký một thông điệp</b> ghi tên trang này. Halyard không bao giờ yêu cầu phê duyệt token không giới hạn; hãy từ chối mọi yêu cầu như vậy.</li><li>Không bao giờ chia sẻ cụm từ khôi phục, khóa riêng, mật khẩu hay mã xác minh, kể cả với nhân viên.</li><li>Kiểm tra thanh địa chỉ trước khi đăng nhập hoặc ký bất cứ điều gì.</li><li>Hãy đặt mật khẩu quỹ và liên kết email; sau khi đổi mật khẩu, việc rút tiền tạm dừng 24 giờ để bảo vệ bạn.</li></ul>',
      },
      id: {
        title: 'Tips keamanan',
        body: '<ul><li>Masuk dengan dompet hanya meminta Anda <b>menandatangani pesan</b> yang menyebut nama situs ini. Halyard tidak pernah meminta persetujuan token tanpa batas; tolak setiap permintaan seperti itu.</li><li>Jangan pernah membagikan frasa pemulihan, kunci privat, kata sandi, atau kode verifikasi, bahkan kepada staf.</li><li>Periksa bilah alamat sebelum masuk atau menandatangani apa pun.</li><li>Atur kata sandi dana dan tautkan email Anda; setelah kata sandi diubah, penarikan dijeda selama 24 jam untuk melindungi Anda.</li></ul>',
      },
      ru: {
        title: 'Советы по безопасности',
        body: '<ul><li>Вход через кошелёк просит только <b>подписать сообщение</b> с названием этого сайта. Halyard никогда не запрашивает неограниченное одобрение токенов — отклоняйте такие запросы.</li><li>Никому, даже сотрудникам, не сообщайте сид-фразу, приватный ключ, пароли и коды подтверждения.</li><li>Проверяйте адресную строку перед входом и перед любой подписью.</li><li>Установите пароль для средств и привяжите почту; после смены пароля вывод приостанавливается на 24 часа ради вашей защиты.</li></ul>',
      },
    },
  },
  {
    slug: 'maintenance',
    ageMs: 0,
    texts: {
      en: {
        title: 'About scheduled maintenance',
        body: '<p>Scheduled maintenance is announced here at least 24 hours in advance, with its start time and expected length.</p><ul><li>Resting orders stay on the book during maintenance.</li><li>Deposits sent during maintenance are credited once the service is back.</li><li>Futures positions keep their take-profit and stop-loss orders.</li></ul><p>Thank you for your patience.</p>',
      },
      cn: {
        title: '关于系统维护',
        body: '<p>计划内的系统维护会至少提前 24 小时在此公告，并注明开始时间和预计时长。</p><ul><li>维护期间挂单保留在订单簿中。</li><li>维护期间发起的充值会在服务恢复后入账。</li><li>合约持仓的止盈止损单保持有效。</li></ul><p>感谢您的耐心。</p>',
      },
      tw: {
        title: '關於系統維護',
        body: '<p>計劃內的系統維護會至少提前 24 小時在此公告，並註明開始時間和預計時長。</p><ul><li>維護期間掛單保留在訂單簿中。</li><li>維護期間發起的充值會在服務恢復後入帳。</li><li>合約持倉的止盈止損單保持有效。</li></ul><p>感謝您的耐心。</p>',
      },
      jp: {
        title: '定期メンテナンスについて',
        body: '<p>定期メンテナンスは、開始時刻と予定時間を添えて少なくとも 24 時間前にここでお知らせします。</p><ul><li>メンテナンス中も板上の注文は保持されます。</li><li>メンテナンス中に送金された入金は、サービス再開後に反映されます。</li><li>先物ポジションの利確・損切り注文は維持されます。</li></ul><p>ご理解のほどよろしくお願いいたします。</p>',
      },
      ko: {
        title: '정기 점검 안내',
        body: '<p>정기 점검은 시작 시간과 예상 소요 시간과 함께 최소 24시간 전에 이곳에 공지됩니다.</p><ul><li>점검 중에도 대기 주문은 호가창에 유지됩니다.</li><li>점검 중 보낸 입금은 서비스가 재개되면 반영됩니다.</li><li>선물 포지션의 익절·손절 주문은 유지됩니다.</li></ul><p>양해해 주셔서 감사합니다.</p>',
      },
      tr: {
        title: 'Planlı bakım hakkında',
        body: '<p>Planlı bakımlar, başlangıç saati ve tahmini süresiyle birlikte en az 24 saat önceden burada duyurulur.</p><ul><li>Bakım sırasında bekleyen emirler defterde kalır.</li><li>Bakım sırasında gönderilen yatırımlar hizmet geri geldiğinde hesaba geçer.</li><li>Vadeli pozisyonların kâr al ve zarar durdur emirleri korunur.</li></ul><p>Sabrınız için teşekkür ederiz.</p>',
      },
      vi: {
        title: 'Về bảo trì định kỳ',
        body: '<p>Lịch bảo trì được thông báo tại đây trước ít nhất 24 giờ, kèm thời điểm bắt đầu và thời lượng dự kiến.</p><ul><li>Các lệnh chờ vẫn nằm trên sổ lệnh trong lúc bảo trì.</li><li>Tiền nạp gửi trong lúc bảo trì sẽ được ghi có khi dịch vụ hoạt động trở lại.</li><li>Các lệnh chốt lời và cắt lỗ của vị thế hợp đồng được giữ nguyên.</li></ul><p>Cảm ơn sự kiên nhẫn của bạn.</p>',
      },
      id: {
        title: 'Tentang pemeliharaan terjadwal',
        body: '<p>Pemeliharaan terjadwal diumumkan di sini paling lambat 24 jam sebelumnya, beserta waktu mulai dan perkiraan durasinya.</p><ul><li>Order yang menunggu tetap berada di buku order selama pemeliharaan.</li><li>Deposit yang dikirim selama pemeliharaan akan dikreditkan setelah layanan kembali.</li><li>Order take-profit dan stop-loss pada posisi futures tetap berlaku.</li></ul><p>Terima kasih atas kesabaran Anda.</p>',
      },
      ru: {
        title: 'О плановых технических работах',
        body: '<p>О плановых работах мы сообщаем здесь не менее чем за 24 часа, с временем начала и ожидаемой продолжительностью.</p><ul><li>Выставленные ордера остаются в книге во время работ.</li><li>Пополнения, отправленные во время работ, зачисляются после восстановления сервиса.</li><li>Ордера тейк-профит и стоп-лосс по фьючерсным позициям сохраняются.</li></ul><p>Спасибо за терпение.</p>',
      },
    },
  },
];
